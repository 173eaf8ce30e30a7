// Public surface of the payment-URI module: the network/asset registry, address validation, and
// the payment URI builder.

export {
  NETWORKS,
  NETWORK_IDS,
  TOKENS,
  findToken,
  matchNetwork,
  networkKey,
  normalizeSymbol,
  resolveAsset,
  type AddressFormat,
  type AssetResolution,
  type NetworkId,
  type NetworkInfo,
  type NetworkSource,
  type TokenInfo,
  type UriScheme,
} from './networks.js';
export { checkAddressSafety, toEip55, validateAddress, type AddressCheck } from './addresses.js';
export { buildPaymentUri, type PaymentUri, type PaymentUriInput } from './uri.js';
