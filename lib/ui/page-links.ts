// Paths of the dashboard's own pages (not the API's), escaped once here.
export const shootPage = (namespace: string, name: string) =>
  `/shoots/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
export const cloudProfilePage = (name: string) => `/cloudprofiles/${encodeURIComponent(name)}`;

/** A NamespacedCloudProfile's page. */
export const namespacedCloudProfilePage = (namespace: string, name: string) =>
  `/namespacedcloudprofiles/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
