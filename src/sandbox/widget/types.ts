/** The page's side of the widget: `window.wpwlOptions` and the errors `onError` receives. */

export type WidgetErrorName = 'InvalidCheckoutIdError' | 'WidgetError' | 'PciIframeSubmitError' | 'PciIframeCommunicationError';

export type WidgetError = Error & { name: WidgetErrorName };

/** The subset of the platform's `wpwlOptions` the sandbox's widget honours. */
export interface WpwlOptions {
  locale?: string;
  style?: 'card' | 'plain' | 'none';
  labels?: Record<string, string>;
  errorMessages?: Record<string, string>;
  autofocus?: boolean | 'card.number' | 'card.holder';
  requireCvv?: boolean;
  brandDetection?: boolean;
  onReady?: () => void;
  onBeforeSubmitCard?: (event: SubmitEvent) => boolean | void;
  onAfterSubmit?: () => void;
  onError?: (error: WidgetError) => void;
  onChangeBrand?: (brand: string) => void;
  onDetectBrand?: (brands: string[]) => void;
}

export type Callback = 'onReady' | 'onBeforeSubmitCard' | 'onAfterSubmit' | 'onError' | 'onChangeBrand' | 'onDetectBrand';
