/**
 * Which app and environment a site command (`publish`, `dev`) acts on, decided in one place:
 * `--app`, else gatehouse.json's "app"; `--env`, else prod (the environment hosted origins serve).
 */
import type { OptionSpec } from './command.js';
import type { CommandContext } from './command.js';
import { type Project, appOf } from './project.js';

/** The flags every project command takes. */
export const APP_TARGET_OPTIONS: OptionSpec = { app: { type: 'string' }, env: { type: 'string' } };

export const APP_TARGET_HELP = `  --app <id>        The app (default: "app" in gatehouse.json; you must own it).
  --env <name>      The environment (default: prod, the one a gateway's hosted origins serve unless
                    it runs with another GATEWAY_ENV).`;

export interface AppTarget {
  appId: string;
  env: string;
}

export function resolveAppTarget(values: CommandContext['values'], project: Project): AppTarget {
  const app = appOf(project, values);
  const env = typeof values.env === 'string' && values.env.trim() ? values.env.trim() : 'prod';
  return { appId: app, env };
}

/** `/dev/apps/<app>/sites/<env>`: where a target's site routes are. */
export const sitePath = (target: AppTarget) => `/dev/apps/${encodeURIComponent(target.appId)}/sites/${encodeURIComponent(target.env)}`;
