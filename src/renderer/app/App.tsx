import { Suspense, type ReactNode } from 'react';
import type { ApiError } from '../../shared/errors.js';
import type { ContractClient } from '../client/contract-client.js';
import { ToastProvider } from '../components/toasts.js';
import {
  AutomationsPage,
  RefusedPage,
  RunsPage,
  SecretsPage,
  SettingsPage,
  WebhooksPage,
} from './lazy-pages.js';
import { ClientProvider } from './client-context.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { LoginPage } from './LoginPage.js';
import { RelayProvider } from './relay-context.js';
import { routeHref, useRoute } from './router.js';
import { StatusLine } from './StatusLine.js';
import { SignOutButton } from './SignOutButton.js';

const SECTIONS = [
  { id: 'webhooks', title: 'Webhooks' },
  { id: 'automations', title: 'Automations' },
  { id: 'runs', title: 'Runs' },
  { id: 'secrets', title: 'Secrets' },
  { id: 'settings', title: 'Settings' },
] as const;

function Page({ route }: { route: string[] }): ReactNode {
  const [section = 'webhooks', ...rest] = route;
  switch (section) {
    case 'automations':
      return <AutomationsPage route={rest} />;
    case 'runs':
      return <RunsPage route={rest} />;
    case 'secrets':
      return <SecretsPage />;
    case 'settings':
      return <SettingsPage />;
    case 'refused':
      return <RefusedPage route={rest} />;
    default:
      return <WebhooksPage route={section === 'webhooks' ? rest : []} />;
  }
}

function Shell(): ReactNode {
  const route = useRoute();
  const current = route[0] ?? 'webhooks';
  return (
    <div className="shell">
      <nav className="nav" aria-label="Sections">
        <div className="brand">Hookport</div>
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a
                href={routeHref(section.id)}
                aria-current={current === section.id ? 'page' : undefined}
              >
                {section.title}
              </a>
            </li>
          ))}
        </ul>
        <SignOutButton />
      </nav>
      <main className="main">
        <ConnectionBanner />
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <Page route={route} />
        </Suspense>
      </main>
      <StatusLine />
    </div>
  );
}

function Unavailable({ error }: { error: ApiError | undefined }): ReactNode {
  if (!error) return <p className="loading">Connecting to the relay…</p>;
  return (
    <div className="centered-panel">
      <h1>The relay did not answer</h1>
      <p className="error-note" role="alert">
        {error.message}
      </p>
      <button type="button" onClick={() => window.location.reload()}>
        Try again
      </button>
    </div>
  );
}

/** The whole UI: pages see only the contract client, whichever transport it uses. */
export function App({ client }: { client: ContractClient }): ReactNode {
  return (
    <ToastProvider>
      <ClientProvider client={client}>
        <RelayProvider
          fallback={(error) =>
            error?.code === 'unauthorized' && client.session ? (
              <LoginPage session={client.session} />
            ) : (
              <Unavailable error={error} />
            )
          }
        >
          <Shell />
        </RelayProvider>
      </ClientProvider>
    </ToastProvider>
  );
}
