/** Ids given to SQL as one JSON array (`IN (SELECT value FROM json_each(?))`): one statement for any count. */
export const jsonIds = (ids: Iterable<string>): string => JSON.stringify([...ids])
