/** What of the reports domain the browser may load: no database behind it. */
export { byCountryFields } from './fields';
