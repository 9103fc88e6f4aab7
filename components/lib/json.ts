/**
 * What a server type looks like after a trip through JSON: dates become ISO strings. Client code imports the
 * domain's result types (type-only, nothing of the server reaches the bundle) and wraps them in TJson.
 */
export type TJson<T> = T extends Date ? string : T extends (infer U)[] ? TJson<U>[] : T extends object ? { [K in keyof T]: TJson<T[K]> } : T;
