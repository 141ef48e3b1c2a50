/**
 * `current_datetime` for prompt templates: an object that answers what Rasa's templates ask of
 * Python's `datetime` (`strftime`, `tzname()`, `isoformat()`, `date()`, `time()`, the fields), in
 * an IANA time zone, computed with `Intl` (no time-zone data of our own).
 */

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** Locales tried in turn for a zone's abbreviation; CLDR knows different ones in each. */
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN'];

// Building a formatter costs far more than using one: they are kept, per zone (and locale).
const partFormats = new Map<string, Intl.DateTimeFormat>();
const nameFormats = new Map<string, Intl.DateTimeFormat>();
/** Zone names already found, by zone, year and offset. */
const zoneNames = new Map<string, string>();

function partFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

function nameFormat(locale: string, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone}`;
  let format = nameFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' });
    nameFormats.set(key, format);
  }
  return format;
}

/** The wall-clock fields of an instant in a zone, and the zone's offset (minutes east of UTC). */
type ZonedParts = ReturnType<typeof formattedParts>;

/**
 * The last minute each zone was asked about: a zone's offset changes only on a minute's
 * boundary, so an instant within that minute differs from its start only in the seconds.
 */
const lastMinutes = new Map<string, { readonly start: number; readonly parts: ZonedParts }>();

function zonedParts(epochMs: number, timeZone: string): ZonedParts {
  const minuteStart = Math.floor(epochMs / 60_000) * 60_000;
  const last = lastMinutes.get(timeZone);
  if (last?.start === minuteStart) return withinMinute(last.parts, epochMs - minuteStart);
  const parts = formattedParts(epochMs, timeZone);
  // Zones with seconds in their offset (local mean time, before 1900) are left uncached.
  if (parts.second === Math.floor((epochMs - minuteStart) / 1000)) {
    lastMinutes.set(timeZone, { start: minuteStart, parts });
  }
  return parts;
}

function withinMinute(parts: ZonedParts, msIntoMinute: number): ZonedParts {
  const second = Math.floor(msIntoMinute / 1000);
  return { ...parts, second, microsecond: (msIntoMinute - second * 1000) * 1000 };
}

function formattedParts(epochMs: number, timeZone: string) {
  const format = partFormat(timeZone);
  const parts = Object.fromEntries(
    format.formatToParts(new Date(epochMs)).map((p) => [p.type, p.value]),
  );
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  const second = Number(parts.second);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const wholeSeconds = Math.floor(epochMs / 1000) * 1000;
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    microsecond: (epochMs - wholeSeconds) * 1000,
    offsetMinutes: Math.round((asUtc - wholeSeconds) / 60_000),
  };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** A moment in a time zone, as a Jinja2 template sees Python's timezone-aware `datetime`. */
export class TemplateDateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly microsecond: number;
  private readonly offsetMinutes: number;

  constructor(
    readonly epochMs: number,
    readonly timeZone: string,
  ) {
    const parts = zonedParts(epochMs, timeZone);
    this.year = parts.year;
    this.month = parts.month;
    this.day = parts.day;
    this.hour = parts.hour;
    this.minute = parts.minute;
    this.second = parts.second;
    this.microsecond = parts.microsecond;
    this.offsetMinutes = parts.offsetMinutes;
  }

  /** Monday is 0, as in Python. */
  weekday(): number {
    return (new Date(Date.UTC(this.year, this.month - 1, this.day)).getUTCDay() + 6) % 7;
  }

  isoweekday(): number {
    return this.weekday() + 1;
  }

  /**
   * The zone's abbreviation (`UTC`, `CET`, `EST`) where the Unicode CLDR data has one, else the
   * UTC offset the way the IANA data writes it for such zones (`+09`, `+0530`).
   */
  tzname(): string {
    // A zone's name in a year follows from its offset then (standard or summer time).
    const key = `${this.timeZone} ${this.year} ${this.offsetMinutes}`;
    let name = zoneNames.get(key);
    if (name === undefined) {
      name = this.zoneName();
      if (zoneNames.size >= 1_000) zoneNames.clear();
      zoneNames.set(key, name);
    }
    return name;
  }

  private zoneName(): string {
    for (const locale of ABBREVIATION_LOCALES) {
      const name = nameFormat(locale, this.timeZone)
        .formatToParts(new Date(this.epochMs))
        .find((p) => p.type === 'timeZoneName')?.value;
      if (name && !/^(GMT|UTC)[+-]/.test(name)) return name;
    }
    const sign = this.offsetMinutes < 0 ? '-' : '+';
    const minutes = Math.abs(this.offsetMinutes);
    return `${sign}${pad(Math.floor(minutes / 60))}${minutes % 60 === 0 ? '' : pad(minutes % 60)}`;
  }

  /** `+HHMM`, as `%z` writes it. */
  utcoffset(): string {
    const sign = this.offsetMinutes < 0 ? '-' : '+';
    const minutes = Math.abs(this.offsetMinutes);
    return `${sign}${pad(Math.floor(minutes / 60))}${pad(minutes % 60)}`;
  }

  date(): string {
    return `${pad(this.year, 4)}-${pad(this.month)}-${pad(this.day)}`;
  }

  time(): string {
    const fraction = this.microsecond > 0 ? `.${pad(this.microsecond, 6)}` : '';
    return `${pad(this.hour)}:${pad(this.minute)}:${pad(this.second)}${fraction}`;
  }

  isoformat(separator = 'T'): string {
    const offset = this.utcoffset();
    return `${this.date()}${separator}${this.time()}${offset.slice(0, 3)}:${offset.slice(3)}`;
  }

  /** Python's `strftime` directives (C89 set and `%-d`-style unpadded forms); others stay as they are. */
  strftime(format: string): string {
    return format.replace(/%(-?)([a-zA-Z%])/g, (whole, unpadded: string, code: string) => {
      const value = this.directive(code);
      if (value === undefined) return whole;
      return unpadded ? value.replace(/^0+(?=\d)/, '') : value;
    });
  }

  toString(): string {
    return this.isoformat(' ');
  }

  private directive(code: string): string | undefined {
    const weekday = this.weekday();
    const hour12 = this.hour % 12 === 0 ? 12 : this.hour % 12;
    const dayOfYear =
      (Date.UTC(this.year, this.month - 1, this.day) - Date.UTC(this.year, 0, 1)) / 86_400_000 + 1;
    switch (code) {
      case 'a':
        return WEEKDAYS[weekday]?.slice(0, 3);
      case 'A':
        return WEEKDAYS[weekday];
      case 'w':
        return String((weekday + 1) % 7);
      case 'd':
        return pad(this.day);
      case 'b':
        return MONTHS[this.month - 1]?.slice(0, 3);
      case 'B':
        return MONTHS[this.month - 1];
      case 'm':
        return pad(this.month);
      case 'y':
        return pad(this.year % 100);
      case 'Y':
        return pad(this.year, 4);
      case 'H':
        return pad(this.hour);
      case 'I':
        return pad(hour12);
      case 'p':
        return this.hour < 12 ? 'AM' : 'PM';
      case 'M':
        return pad(this.minute);
      case 'S':
        return pad(this.second);
      case 'f':
        return pad(this.microsecond, 6);
      case 'z':
        return this.utcoffset();
      case 'Z':
        return this.tzname();
      case 'j':
        return pad(dayOfYear, 3);
      case 'c':
        return `${WEEKDAYS[weekday]?.slice(0, 3)} ${MONTHS[this.month - 1]?.slice(0, 3)} ${String(this.day).padStart(2, ' ')} ${this.time().slice(0, 8)} ${this.year}`;
      case 'x':
        return `${pad(this.month)}/${pad(this.day)}/${pad(this.year % 100)}`;
      case 'X':
        return this.time().slice(0, 8);
      case '%':
        return '%';
      default:
        return undefined;
    }
  }
}
