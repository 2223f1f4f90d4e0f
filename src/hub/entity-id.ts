// Entity ids as Home Assistant defines them: lower-case letters, digits and single underscores,
// `<domain>.<object_id>`, neither part starting or ending with an underscore.

const VALID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;

export const isEntityId = (id: unknown): id is string => typeof id === 'string' && id.length <= 255 && VALID.test(id);

export const domainOf = (entityId: string): string => entityId.slice(0, entityId.indexOf('.'));

/** Lower snake form of a name, as HA derives object ids ("Movie Night!" -> "movie_night"). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
