/** Injection tokens for what has no class of its own to inject by. */
export const LEDGER_CONFIG = Symbol('LEDGER_CONFIG');
export const EVENT_STORE = Symbol('EVENT_STORE');
export const PIPELINE_ENVIRONMENT = Symbol('PIPELINE_ENVIRONMENT');
export const READ_MODEL = Symbol('READ_MODEL');
/** Test-only failure hooks of the authorization path (FaultPoints); NO_FAULTS in production. */
export const FAULT_POINTS = Symbol('FAULT_POINTS');
