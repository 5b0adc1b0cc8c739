// The console's frame: sign-in when there is no session, else the navigation of the pages this
// role may use (the others are absent, not disabled) and the page routes.
import { NavLink, Navigate, Route, Routes } from 'react-router-dom';
import { roleOf, useSession, type Role } from './session';
import { SignIn } from './pages/SignIn';
import { Connections } from './pages/Connections';
import { Organisations, OrgPolicy } from './pages/Organisations';
import { Audit } from './pages/Audit';
import { Overview } from './pages/Overview';
import { Catalogue } from './pages/Catalogue';
import { Settings } from './pages/Settings';
import { Loading, Refusal } from './ui';

export type PageName = 'Overview' | 'Organisations' | 'Audit' | 'Connections' | 'Catalogue' | 'Settings';

/** Which pages each role may use, in the navigation's order. */
export const PAGES_BY_ROLE: Record<Role, PageName[]> = {
  site_admin: ['Overview', 'Organisations', 'Audit', 'Connections', 'Catalogue', 'Settings'],
  org_owner: ['Organisations', 'Audit', 'Connections', 'Catalogue'],
  person: ['Connections'],
};

const PATHS: Record<PageName, string> = {
  Overview: '/overview',
  Organisations: '/orgs',
  Audit: '/audit',
  Connections: '/connections',
  Catalogue: '/catalogue',
  Settings: '/settings',
};

export function App() {
  const { current, signOut } = useSession();
  if (current.state === 'loading') return <main className="centre"><Loading what="your session" /></main>;
  if (current.state === 'error')
    return (
      <main className="centre">
        <Refusal message={`The console could not reach the service: ${current.message}`} />
      </main>
    );
  if (current.state === 'signed_out') return <SignIn reason={current.reason} />;
  const { session } = current;
  const role = roleOf(session);
  const pages = PAGES_BY_ROLE[role];
  const may = (page: PageName) => pages.includes(page);
  const home = PATHS[pages[0] as PageName];
  const refused = (page: PageName) => (
    <Refusal status={403} message={`Your role (${role.replace('_', ' ')}) may not use ${page}.`} />
  );
  return (
    <div className="frame">
      <a className="skip" href="#content">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">AegisGitea-MCP</span>
        <nav aria-label="Console">
          <ul>
            {pages.map((page) => (
              <li key={page}>
                <NavLink to={PATHS[page]}>{page}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span>
            {session.login} <small>({role.replace('_', ' ')})</small>
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="content" tabIndex={-1}>
        <Routes>
          <Route path="/" element={<Navigate to={home} replace />} />
          <Route path="/overview" element={may('Overview') ? <Overview /> : refused('Overview')} />
          <Route path="/orgs" element={may('Organisations') ? <Organisations /> : refused('Organisations')} />
          <Route path="/orgs/:org" element={may('Organisations') ? <OrgPolicy /> : refused('Organisations')} />
          <Route path="/audit" element={may('Audit') ? <Audit /> : refused('Audit')} />
          <Route path="/connections" element={<Connections isSiteAdmin={session.isSiteAdmin} />} />
          <Route path="/catalogue" element={may('Catalogue') ? <Catalogue /> : refused('Catalogue')} />
          <Route path="/settings" element={may('Settings') ? <Settings /> : refused('Settings')} />
          <Route path="*" element={<Refusal status={404} message="There is no such page in the console." />} />
        </Routes>
      </main>
    </div>
  );
}
