// describe_entities: the type and name of entities given by id. `querytarget` reports only
// ids and positions; notebooks join this answer onto its rows so entities can be told apart.
import type { Capability } from "../capability.js";
import type { JsonObject } from "../json.js";

/** Ids per request. A request line has 461 bytes; the caller batches ids to fit it anyway. */
export const MAX_ENTITY_IDS = 64;

export const describeEntities: Capability = {
  name: "describe_entities",
  readOnly: true,
  description: "Type id and name tag of each entity id given (querytarget's uniqueId); null when gone",
  params: { ids: `array: entity ids as strings, at most ${MAX_ENTITY_IDS}` },
  run(payload, ctx) {
    const ids = payload["ids"] ?? [];
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
      return { ok: false, message: "ids must be an array of entity id strings" };
    }
    if (ids.length > MAX_ENTITY_IDS) return { ok: false, message: `at most ${MAX_ENTITY_IDS} ids per request` };
    const entities: JsonObject[] = ids.map((id: string) => {
      const found = ctx.entity(id);
      return found ? { id, typeId: found.typeId, nameTag: found.nameTag } : { id, typeId: null, nameTag: null };
    });
    return { ok: true, result: { entities } };
  },
};
