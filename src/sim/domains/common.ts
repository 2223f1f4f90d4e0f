// Field validators and selectors shared by the domains, named like the hub's config_validation.
import type { EntityCtx, FieldDef } from '../services.js';
import { all, boolean, clamp, coerceFloat, coerceInt, range, string } from '../schema.js';

export const positiveInt = all(coerceInt, range({ min: 0 }));
export const positiveFloat = all(coerceFloat, range({ min: 0 }));
export const byte = all(coerceInt, range({ min: 0, max: 255 }));
export const smallFloat = all(coerceFloat, range({ min: 0, max: 1 }));
export const percentage = all(coerceInt, range({ min: 0, max: 100 }));
export const clampedInt = (min: number, max: number) => all(coerceInt, clamp({ min, max }));

// A selector written without options in the hub's services.yaml (`text:`) is described as null.
export const sel = {
  number: (min: number, max: number, extra: Record<string, unknown> = {}) => ({ number: { min, max, ...extra } }),
  text: () => ({ text: null }),
  boolean: () => ({ boolean: null }),
  object: () => ({ object: null }),
  select: (options: string[], extra: Record<string, unknown> = {}) => ({ select: { options, ...extra } }),
};

/** The optional `code` field of lock and alarm services. */
export const codeField: FieldDef = {
  v: string,
  name: 'Code',
  description: 'Code used to operate the device.',
  example: '1234',
  selector: sel.text(),
};

export const booleanField = (name: string, description: string, required = true): FieldDef => ({
  v: boolean,
  required,
  name,
  description,
  selector: sel.boolean(),
});

/** The turn_on / turn_off / toggle trio of an on/off entity, with nothing else to set. */
export function onOffServices(label: string): Record<string, { name: string; description: string; handle: (e: EntityCtx) => void }> {
  return {
    turn_on: { name: 'Turn on', description: `Turns a ${label} on.`, handle: (e) => void e.write('on') },
    turn_off: { name: 'Turn off', description: `Turns a ${label} off.`, handle: (e) => void e.write('off') },
    toggle: {
      name: 'Toggle',
      description: `Toggles a ${label} on/off.`,
      handle: (e) => void e.write(e.state.state === 'on' ? 'off' : 'on'),
    },
  };
}

export const num = (x: unknown, fallback: number): number => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);
