// The logging adapter's injection token: a pino Logger (take logger.child({ component })).
export const LOGGER = Symbol('LOGGER');
