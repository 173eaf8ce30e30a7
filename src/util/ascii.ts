// Case folding by ASCII rules only: the one rule for currency symbols and the gateway's words
// (all ASCII), wherever gw compares them.

/**
 * Upper-cased by ASCII rules only: a–z become A–Z and every other character stays as it is.
 * Unicode's rules (and NFKC) would fold "uſdt" (long s), "ＵＳＤＴ" (full width) or "uﬅ" (a
 * ligature) into USDT.
 */
export function asciiUpperCase(text: string): string {
  return text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** Lower-cased by ASCII rules only (A–Z to a–z), as asciiUpperCase. */
export function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}
