// Every served operation, keyed by the swagger operationId. Operations missing here answer 501.
import type { Handler } from '../context';
import { issueHandlers } from './issue';
import { orgUserHandlers } from './org-user';
import { repoHandlers } from './repo';

export const handlers: Record<string, Handler> = { ...repoHandlers, ...issueHandlers, ...orgUserHandlers };
