/**
 * `ListTasks` (A2A 1.0): the tasks of one context, most recently changed first, paged by an
 * offset token. A context is one conversation, whose tasks share its partition; listing every
 * context would scan the table, so a request must name its context.
 */
import {
  type ListTasksRequest,
  type ListTasksResponse,
  TaskState,
  taskStateToJSON,
} from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { conversationOf } from './ids.js';
import { seenBy, toTask } from './record.js';
import type { A2ATaskStore } from './taskStore.js';

const DEFAULT_PAGE = 50;
const LARGEST_PAGE = 100;

export async function listTasks(
  deps: { readonly tasks: A2ATaskStore },
  params: ListTasksRequest,
  caller: string,
): Promise<ListTasksResponse> {
  if (!params.contextId) {
    throw new RequestMalformedError('ListTasks lists the tasks of one context: give its contextId');
  }
  const pageSize = Math.min(Math.max(1, params.pageSize ?? DEFAULT_PAGE), LARGEST_PAGE);
  const offset = params.pageToken ? Number(params.pageToken) : 0;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new RequestMalformedError('pageToken is not one this agent gave');
  }
  const state =
    params.status === TaskState.TASK_STATE_UNSPECIFIED ? undefined : taskStateToJSON(params.status);
  const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : undefined;
  const records = (await deps.tasks.list(conversationOf(params.contextId)))
    .filter((r) => r.context_id === params.contextId && seenBy(r, caller))
    .filter((r) => state === undefined || r.state === state)
    .filter((r) => after === undefined || r.status_at > after)
    .sort((a, b) => b.status_at - a.status_at);
  const page = records.slice(offset, offset + pageSize);
  return {
    tasks: page.map((r) =>
      toTask(r, {
        historyLength: params.historyLength,
        artifacts: params.includeArtifacts ?? false,
      }),
    ),
    nextPageToken: offset + pageSize < records.length ? String(offset + pageSize) : '',
    pageSize,
    totalSize: records.length,
  };
}
