export * from "./organisations";
export * from "./audit";
export * from "./api-keys";
export * from "./webhooks";
