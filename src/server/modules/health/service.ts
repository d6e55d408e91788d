/** What other modules use of health (DESIGN §3, decision 027): the operator warnings the admin overview shows. */
export { operatorWarnings } from './warnings';
