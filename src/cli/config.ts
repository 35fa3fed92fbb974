/** The server configuration for the commands that open the database or listen themselves. */
import { type Config, ConfigError, loadConfig } from '../config.js';
import { CliError, EXIT_USAGE } from './output.js';

export function configFrom(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError('invalid_config', error.message, EXIT_USAGE);
    throw error;
  }
}
