// Chooses the ResultScrubber: the secrets module once it provides its API, else the exact-redaction
// pass-through (so the caller's token is still never echoed).
import type { ResultScrubber } from '../../core/executor/tool-service';
import { passThroughScrubber } from '../../core/executor/pass-through-scrubber';

export function resolveResultScrubber(): ResultScrubber {
  return passThroughScrubber;
}
