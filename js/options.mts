// Numeric options read fail-closed (internal module). `undefined` takes the option's default;
// any other value the option does not accept (a string, NaN, a negative number, null: an unset
// environment variable) is a `TurnwireError` (`invalid_type` or `invalid_value`, `path` the
// option's) naming the option, what it got and what it accepts, never a limit switched off or a
// default taken silently. A string is shown only when it reads as a number, and short: an option
// is not the place for a key, but a key put there by mistake is not echoed.
import { turnwireError } from "./errors.mjs";

/** What values an option accepts, in words for the error, and as a test. */
export interface NumberRule {
  accepts: string;
  ok(n: number): boolean;
}

/** A limit whose `0` means no limit, as its documentation has always said. */
export const LIMIT_OR_ZERO: NumberRule = { accepts: "a positive number, or 0 or Infinity for no limit", ok: (n) => n >= 0 };
/** A count with no upper bound: a positive integer, or `Infinity`. */
export const COUNT: NumberRule = { accepts: "a positive integer, or Infinity", ok: (n) => n === Infinity || (Number.isInteger(n) && n > 0) };
/** A count that may be zero: 0 or a positive integer. */
export const COUNT_OR_ZERO: NumberRule = { accepts: "0 or a positive integer", ok: (n) => Number.isInteger(n) && n >= 0 };
/** A delay: a finite number of ms, 0 or more. */
export const DELAY: NumberRule = { accepts: "a finite number of ms, 0 or more", ok: (n) => Number.isFinite(n) && n >= 0 };
/** A delay's cap: a number of ms, 0 or more, or `Infinity` (no cap). */
export const DELAY_CAP: NumberRule = { accepts: "a number of ms, 0 or more, or Infinity for no cap", ok: (n) => n >= 0 };
/** A growth factor: a finite number, 1 or more. */
export const FACTOR: NumberRule = { accepts: "a finite number, 1 or more", ok: (n) => Number.isFinite(n) && n >= 1 };

/** `value` when `rule` accepts it, `fallback` when it is undefined; else throws naming `name` (a path under `$`). */
export function numberOption(name: string, value: unknown, fallback: number, rule: NumberRule): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && !Number.isNaN(value) && rule.ok(value)) return value;
  throw optionError(name, value, rule.accepts);
}

/** `value` when it is one of `choices`, `fallback` when it is undefined; else throws naming `name`. */
export function choiceOption<T extends string>(name: string, value: unknown, fallback: T, choices: readonly T[]): T {
  if (value === undefined) return fallback;
  if ((choices as readonly unknown[]).includes(value)) return value as T;
  throw optionError(name, value, choices.map((c) => JSON.stringify(c)).join(" or "), typeof value === "string" ? "invalid_value" : "invalid_type");
}

/**
 * A TurnwireError for option `name` (a path under `$`, as `backoff.maxMs`) that got `value`:
 * `invalid_value` for a number (a value of the right type), else `invalid_type`, unless `code` says.
 */
export function optionError(name: string, value: unknown, accepts: string, code?: "invalid_type" | "invalid_value"): Error {
  return turnwireError(code ?? (typeof value === "number" ? "invalid_value" : "invalid_type"), `$.${name}`, `${name} must be ${accepts}; got ${describe(value)}`);
}

/** Strings an error may show: numbers, and short lower-case words (a strategy, a mode). */
const SHOWN = /^[\s\d.eE+-]*$|^\s*[+-]?(?:NaN|Infinity)\s*$|^[a-z][a-z-]*$/;

/** A short, safe description of a value: numbers as they are, strings only when they read as a number or a word. */
function describe(value: unknown): string {
  switch (typeof value) {
    case "number":
      return String(value);
    case "string":
      return value.length <= 24 && SHOWN.test(value) ? `${JSON.stringify(value)} (a string)` : `a string of ${value.length} characters`;
    case "boolean":
      return `${value} (a boolean)`;
    case "undefined":
      return "undefined";
    case "bigint":
      return "a bigint";
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    default:
      if (value === null) return "null";
      try {
        return Array.isArray(value) ? "an array" : "an object";
      } catch {
        return "an object"; // a revoked Proxy
      }
  }
}
