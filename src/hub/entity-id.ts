// Entity ids as Home Assistant defines them: lower-case letters, digits and single underscores,
// `<domain>.<object_id>`, neither part starting or ending with an underscore.

const VALID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;

/** Home Assistant's limit on an entity id's length. */
export const MAX_ENTITY_ID = 255;

export const isEntityId = (id: unknown): id is string => typeof id === 'string' && id.length <= MAX_ENTITY_ID && VALID.test(id);

export const domainOf = (entityId: string): string => entityId.slice(0, entityId.indexOf('.'));
