// Decides whether a tool call may act as another Gitea user (Gitea's Sudo header).
export type SudoDecision = { ok: true; sudo: string | null } | { ok: false; message: string };

// Gitea user names: alphanumerics, '-', '_' and '.', at most 40 characters.
const LOGIN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

export function decideSudo(
  requested: unknown,
  caller: { allowSudo: boolean; isSiteAdmin: boolean; login: string },
): SudoDecision {
  if (requested === undefined || requested === null || requested === '') return { ok: true, sudo: null };
  if (typeof requested !== 'string' || !LOGIN.test(requested)) {
    return {
      ok: false,
      message: 'sudo must name a Gitea user (letters, digits, ".", "_" or "-", at most 40 characters)',
    };
  }
  if (!caller.allowSudo) return { ok: false, message: 'sudo is disabled on this server (ALLOW_SUDO is off)' };
  if (!caller.isSiteAdmin) {
    return { ok: false, message: `sudo requires a Gitea site administrator; ${caller.login} is not one` };
  }
  // Acting as yourself needs no Sudo header.
  if (requested.toLowerCase() === caller.login.toLowerCase()) return { ok: true, sudo: null };
  return { ok: true, sudo: requested };
}
