// `?first` and `?later-<group>` parts of a locale file (consumer/vite.config.ts); outside that build each is the whole file.
declare module "*.json?first" {
  const resources: Record<string, unknown>;
  export default resources;
}
declare module "*.json?later-creatorPage" {
  const resources: Record<string, unknown>;
  export default resources;
}
declare module "*.json?later-screens" {
  const resources: Record<string, unknown>;
  export default resources;
}
