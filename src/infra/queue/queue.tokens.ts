// The queue adapter's injection token: a JobQueue (BullMQ or in-process).
export const JOB_QUEUE = Symbol('JOB_QUEUE');
