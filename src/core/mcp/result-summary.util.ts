// Cheap extraction of status and kind from a tool result's JSON text for logs and metrics, without
// parsing a possibly large envelope: both keys sit near the start of the text.
export type ResultSummary = { status: number | null; kind: string };

const STATUS = /"status"\s*:\s*(\d{3})/;
const KIND = /"kind"\s*:\s*"([a-z_]{1,40})"/;

export function summarizeResult(text: string | undefined, isError: boolean): ResultSummary {
  const head = (text ?? '').slice(0, 2048);
  const status = STATUS.exec(head);
  const kind = isError ? KIND.exec(head) : null;
  return {
    status: status ? Number(status[1]) : null,
    kind: isError ? (kind ? (kind[1] as string) : 'error') : 'ok',
  };
}
