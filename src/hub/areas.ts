// The one way a spoken or typed area becomes an area id: its id, its name or any of its aliases,
// in any case and spacing. Tools, the command planner and REST filters all use this.

export interface NamedArea {
  area_id: string;
  name: string;
  aliases?: readonly string[] | null;
}

const fold = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** The area a word names, or undefined when none does. */
export function areaIdFor(areas: Iterable<NamedArea>, word: string): string | undefined {
  const w = fold(word);
  if (!w) return undefined;
  for (const a of areas) if (a.area_id === w || fold(a.name) === w || a.aliases?.some((x) => fold(x) === w)) return a.area_id;
  return undefined;
}
