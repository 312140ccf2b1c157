// A static single-page app: the server serves it and the pages read the JSON API in the browser.
export const ssr = false;
export const prerender = false;
