import { describe, expect, it } from 'vitest';
import { TemplateDateTime } from '../../../src/agents/index.js';

/** 2026-01-05 09:07:03 UTC, a Monday, on a whole second. */
const MONDAY = Date.UTC(2026, 0, 5, 9, 7, 3);

describe('TemplateDateTime', () => {
  it('names every weekday and month in full and in short, as strftime does', () => {
    const days = Array.from({ length: 7 }, (_, i) =>
      new TemplateDateTime(MONDAY + i * 86_400_000, 'UTC').strftime('%A %a %w'),
    );
    expect(days).toEqual([
      'Monday Mon 1',
      'Tuesday Tue 2',
      'Wednesday Wed 3',
      'Thursday Thu 4',
      'Friday Fri 5',
      'Saturday Sat 6',
      'Sunday Sun 0',
    ]);
    const months = Array.from({ length: 12 }, (_, i) =>
      new TemplateDateTime(Date.UTC(2026, i, 15, 12), 'UTC').strftime('%B %b %m'),
    );
    expect(months).toEqual([
      'January Jan 01',
      'February Feb 02',
      'March Mar 03',
      'April Apr 04',
      'May May 05',
      'June Jun 06',
      'July Jul 07',
      'August Aug 08',
      'September Sep 09',
      'October Oct 10',
      'November Nov 11',
      'December Dec 12',
    ]);
  });

  it('writes the 12-hour clock with midnight and noon as 12', () => {
    const at = (hour: number) =>
      new TemplateDateTime(Date.UTC(2026, 0, 5, hour, 30), 'UTC').strftime('%I:%M %p');
    expect([0, 1, 11, 12, 13, 23].map(at)).toEqual([
      '12:30 AM',
      '01:30 AM',
      '11:30 AM',
      '12:30 PM',
      '01:30 PM',
      '11:30 PM',
    ]);
  });

  it("writes the locale's date and time (%c, %x, %X) as Python's C locale does", () => {
    const moment = new TemplateDateTime(MONDAY + 456, 'UTC');
    expect(moment.strftime('%c|%x|%X')).toBe('Mon Jan  5 09:07:03 2026|01/05/26|09:07:03');
    const later = new TemplateDateTime(Date.UTC(2031, 10, 28, 23, 59, 1), 'Europe/Berlin');
    expect(later.strftime('%c|%x|%X')).toBe('Sat Nov 29 00:59:01 2031|11/29/31|00:59:01');
  });

  it('drops only the leading zeros of a value written with %-', () => {
    const moment = new TemplateDateTime(Date.UTC(2026, 0, 5, 0, 0, 7), 'UTC');
    expect(moment.strftime('%-d %-m %-H %-M %-S %-j %-Y %-y')).toBe('5 1 0 0 7 5 2026 26');
  });

  it('leaves the fraction out of a time on a whole second, as Python does', () => {
    const moment = new TemplateDateTime(MONDAY, 'UTC');
    expect(moment.time()).toBe('09:07:03');
    expect(moment.isoformat()).toBe('2026-01-05T09:07:03+00:00');
    expect(moment.strftime('%f')).toBe('000000');
  });

  it("takes a zone's abbreviation from any of the English locales that knows it", () => {
    const summer = Date.UTC(2026, 6, 15, 12);
    expect(new TemplateDateTime(summer, 'America/New_York').tzname()).toBe('EDT');
    expect(new TemplateDateTime(summer, 'Europe/London').tzname()).toBe('BST');
    expect(new TemplateDateTime(summer, 'Australia/Sydney').tzname()).toBe('AEST');
    expect(new TemplateDateTime(summer, 'Asia/Kolkata').tzname()).toBe('IST');
  });

  it('names a zone without an abbreviation by its offset, west of UTC too', () => {
    const winter = Date.UTC(2026, 0, 15, 12);
    const summer = Date.UTC(2026, 6, 15, 12);
    expect(new TemplateDateTime(winter, 'America/Sao_Paulo').tzname()).toBe('-03');
    expect(new TemplateDateTime(winter, 'Atlantic/Azores').tzname()).toBe('-01');
    expect(new TemplateDateTime(summer, 'Atlantic/Azores').tzname()).toBe('+00');
    expect(new TemplateDateTime(winter, 'Pacific/Marquesas').tzname()).toBe('-0930');
    expect(new TemplateDateTime(winter, 'Asia/Tokyo').strftime('%Z %z')).toBe('+09 +0900');
  });

  it('follows a change of summer time within the minute it last computed and across it', () => {
    // Europe/Berlin went to summer time at 01:00 UTC on 29 March 2026.
    const change = Date.UTC(2026, 2, 29, 1);
    const at = (ms: number) => {
      const time = new TemplateDateTime(ms, 'Europe/Berlin');
      return `${time.isoformat()} ${time.tzname()}`;
    };
    expect(
      [change - 30_000, change - 500, change, change + 1_250, change + 59_999].map(at),
    ).toEqual([
      '2026-03-29T01:59:30+01:00 CET',
      '2026-03-29T01:59:59.500000+01:00 CET',
      '2026-03-29T03:00:00+02:00 CEST',
      '2026-03-29T03:00:01.250000+02:00 CEST',
      '2026-03-29T03:00:59.999000+02:00 CEST',
    ]);
    expect(at(change - 500)).toBe('2026-03-29T01:59:59.500000+01:00 CET');
  });

  it('keeps the seconds of an offset of local mean time, within one minute too', () => {
    // Liberia kept a time 44 min 30 s west of Greenwich until 1972.
    const instant = Date.UTC(1960, 5, 1, 12, 0, 10);
    const times = [instant, instant + 20_000].map((ms) =>
      new TemplateDateTime(ms, 'Africa/Monrovia').strftime('%H:%M:%S'),
    );
    expect(times).toEqual(['11:15:40', '11:16:00']);
  });
});
