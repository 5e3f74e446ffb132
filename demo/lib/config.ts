/** The shop's settings from its server: products, the gateway's address for the widget, the sandbox's test cards. */
import type { TestCard } from 'gw-elements/sandbox/test-cards';
import type { Product } from '../server/catalogue.js';
import { api } from './api.js';

export interface ShopConfig {
  readonly currency: string;
  readonly gatewayUrl: string;
  readonly products: readonly Product[];
  readonly testCards: readonly TestCard[];
  readonly canExpireCheckouts: boolean;
}

let config: Promise<ShopConfig> | undefined;

export function shopConfig(): Promise<ShopConfig> {
  config ??= api<ShopConfig>('GET', '/config', 'Shop settings');
  return config;
}
