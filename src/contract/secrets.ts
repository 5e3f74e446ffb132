/**
 * What is secret, declared once, beside the field tables (formats.ts): every
 * request field that holds a secret, by its form name, and the other
 * spellings merchants and plugins give the same secrets. The scrubber
 * (redaction.ts) masks by this table, the sandbox's stand-in wallets must name
 * their proof fields from it (wallet-stand-in.ts is typed against it), and the
 * adversarial suites plant a canary in each entry and look for it in every
 * output channel (test/adversarial/declared-secrets.test.ts). A secret field
 * added to a request is added here, or the type of its sender does not compile.
 *
 * | field | secret | why |
 * |-------|--------|-----|
 * | `card.number` | the card number (PAN) | PCI DSS: shown as its first six and last four digits at most |
 * | `card.cvv` | the security code | PCI DSS: never kept after authorisation, never shown |
 * | `applePay.paymentToken`, `googlePay.paymentToken` | the wallet's payment token | it holds the device's card number, encrypted, and pays once |
 * | `stcPay.otp` | STC Pay's one-time password | the shopper's proof of possession of the phone |
 * | the `Authorization` header | the merchant's access token | it moves money on the merchant's account |
 *
 * No imports: the sandbox's widget bundle reads this table too.
 */

/** What a secret is, which decides how it is masked: a card number keeps its first six and last four digits, the rest nothing. */
export type SecretKind = 'cardNumber' | 'securityCode' | 'accessToken' | 'walletToken' | 'oneTimePassword';

/** Every request field that holds a secret, by its form name. */
export const SECRET_FIELDS = {
  'card.number': 'cardNumber',
  'card.cvv': 'securityCode',
  'applePay.paymentToken': 'walletToken',
  'googlePay.paymentToken': 'walletToken',
  'stcPay.otp': 'oneTimePassword',
} as const satisfies Readonly<Record<string, SecretKind>>;

export type SecretField = keyof typeof SECRET_FIELDS;

/**
 * The same secrets under the names merchants, plugins and the platform's older
 * forms give them, by the name's last segment, lower case without `_` and `-`
 * (`customParameters[CVV]`, `securityCode`, `card_cvc`, `Authorization`).
 */
export const SECRET_NAME_SPELLINGS: Readonly<Record<string, SecretKind>> = {
  cvv: 'securityCode',
  cvv2: 'securityCode',
  cvc: 'securityCode',
  cvc2: 'securityCode',
  cvn: 'securityCode',
  // Amex prints its code as the CID; other schemes and gateways call it CSC, card code or card verification value.
  cid: 'securityCode',
  csc: 'securityCode',
  cardcode: 'securityCode',
  cardverificationvalue: 'securityCode',
  cardverificationcode: 'securityCode',
  securitycode: 'securityCode',
  cardsecuritycode: 'securityCode',
  cardcvv: 'securityCode',
  cardcvc: 'securityCode',
  cardnumber: 'cardNumber',
  creditcardnumber: 'cardNumber',
  pan: 'cardNumber',
  authorization: 'accessToken',
  accesstoken: 'accessToken',
  // The platform's older credential parameters (`authentication.password`): what the token replaced.
  password: 'accessToken',
  paymenttoken: 'walletToken',
  // A wallet's token as plugins name it (`wallet_token`, `applePayToken`). A bare `token` is no secret's name: the
  // status store's claims have one.
  wallettoken: 'walletToken',
  applepaytoken: 'walletToken',
  googlepaytoken: 'walletToken',
  otp: 'oneTimePassword',
  onetimepassword: 'oneTimePassword',
  stcotp: 'oneTimePassword',
  stcpayotp: 'oneTimePassword',
};
