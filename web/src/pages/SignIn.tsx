export function SignIn({ reason }: { reason?: string }) {
  return (
    <main className="centre">
      <div className="card signin">
        <h1>AegisGitea-MCP console</h1>
        <p>Policies, audit and your connected MCP clients. You sign in with your Gitea account.</p>
        {reason && (
          <p role="status" className="notice">
            {reason}
          </p>
        )}
        {/* A full page navigation: the service answers with a redirect to Gitea. */}
        <a className="button primary" href="/admin/auth/sign-in">
          Sign in with Gitea
        </a>
      </div>
    </main>
  );
}
