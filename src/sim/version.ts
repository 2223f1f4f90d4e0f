// Hub versions. Behaviour that changed in a known release is gated here by the version the hub
// reports, so a boundary found against a real hub (tests/e2e/parity.test.ts) is moved in one place.

/** [year, month, patch] of a version such as '2024.3.3' (missing parts are 0). */
export function parseVersion(v: string): [number, number, number] {
  const [year = '0', month = '0', patch = '0'] = v.split('.');
  return [Number.parseInt(year, 10) || 0, Number.parseInt(month, 10) || 0, Number.parseInt(patch, 10) || 0];
}

/** Whether `version` is `since` or newer. */
export function atLeast(version: string, since: string): boolean {
  const a = parseVersion(version);
  const b = parseVersion(since);
  for (let i = 0; i < 3; i++) if ((a[i] as number) !== (b[i] as number)) return (a[i] as number) > (b[i] as number);
  return true;
}

/** Releases that changed what the simulator shows. */
export const SINCE = {
  /** Floor and label registries; entity registry entries list labels. */
  floorsAndLabels: '2024.3',
  /** Everything the `legacy` flag leaves out: area floors and labels, floor and label targets, newer messages. */
  modern: '2024.4',
  /** color_hsv_to_RGB rounds its channels instead of truncating them. */
  roundedHsvToRgb: '2024.12',
  // Seen on 2026.11.0, the current release, against the 2025.1 behaviour the simulator had before;
  // the release between that brought each one is not pinned here, so each is dated 2026.11.
  /** probatio's error wording: "not a valid option at 'foo'" for voluptuous's "extra keys not allowed @ data['foo']". */
  probatio: '2026.11',
  /** Lights without mireds: no color_temp, min_mireds or max_mireds, no color_temp or kelvin service field, and a colour temperature kept as given. */
  kelvinOnly: '2026.11',
  /** get_services without names and descriptions (the frontend has them from translations), selectors with their defaults filled in. */
  translatedServices: '2026.11',
  /** Translated validation messages without a closing period; climate, REST and registry shapes of 2026. */
  current: '2026.11',
} as const;

/** The release the simulator reports unless told otherwise: the one users run. */
export const CURRENT_VERSION = '2026.11.0';
