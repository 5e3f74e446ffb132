/** What 3-D Secure asks of the shopper's browser; the shop's server sends it with a server-to-server payment. */
export const shopperBrowser = () => ({
  language: navigator.language,
  screenWidth: screen.width,
  screenHeight: screen.height,
  screenColorDepth: screen.colorDepth,
  timezone: new Date().getTimezoneOffset(),
});
