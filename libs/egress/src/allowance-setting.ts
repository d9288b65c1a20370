import type { ConfigReader } from '@libs/config';
import { AddressAllowance } from './address-guard';

/** An `*_ALLOWED_ADDRESSES` setting: a comma list of CIDRs let through the guard (unset: none); a bad one is a configuration problem naming the setting. */
export function readAllowance(r: ConfigReader, name: string): AddressAllowance | false {
  const text = r.optional(name);
  if (text === null) return false;
  try {
    return AddressAllowance.parse(text);
  } catch (error) {
    r.problem(name, (error as Error).message);
    return false;
  }
}
