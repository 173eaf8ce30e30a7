// The notification vocabulary commands need at parse time (no dependencies, cheap to load): the
// two body styles and the `type` values each uses.

export type NotificationStyle = 'legacy' | 'v1';
export const NOTIFICATION_STYLES: readonly NotificationStyle[] = ['legacy', 'v1'];

/** `type` values each style uses. */
export const LEGACY_TYPES = ['payment', 'payout'] as const;
export const V1_TYPES = ['white_label', 'invoice', 'static_address', 'payment_link', 'donation', 'payout'] as const;
export const NOTIFICATION_TYPES = ['payment', 'white_label', 'invoice', 'static_address', 'payment_link', 'donation', 'payout'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The type a payment's notifications carry when nothing else says: legacy `payment`, v1 `white_label`. */
export function defaultType(style: NotificationStyle): NotificationType {
  return style === 'legacy' ? 'payment' : 'white_label';
}
