// The release this code is: the health route and the OpenAPI document show it, a backup records it.
export const API_VERSION = '1.5.0';
