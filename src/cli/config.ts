/** The server configuration for the commands that open the database or listen themselves. */
import { type Config, ConfigError, type IdpConfig, loadConfig, loadIdpConfig } from '../config.js';
import { CliError, EXIT_USAGE } from './output.js';

/** A configuration problem is a usage error (exit 2) naming every bad variable. */
function usingEnv<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError('invalid_config', error.message, EXIT_USAGE);
    throw error;
  }
}

export const configFrom = (env: NodeJS.ProcessEnv): Config => usingEnv(() => loadConfig(env));
export const idpConfigFrom = (env: NodeJS.ProcessEnv): IdpConfig => usingEnv(() => loadIdpConfig(env));
