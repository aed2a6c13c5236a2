import type { ParseArgsOptionsConfig } from 'node:util';

/** The variable standing for an option: COLAPI_ and its name in capitals, `-` as `_` (--admin-port: COLAPI_ADMIN_PORT). */
export function variableOf(option: string): string {
  return `COLAPI_${option.toUpperCase().replaceAll('-', '_')}`;
}

type Values = Record<string, string | boolean | string[] | undefined>;

/**
 * Fills the options the command line left out from their variables (an empty variable counts as unset), for
 * the options named; notes in `taken`, for each option taken so, its variable. A boolean option reads true, false, 1
 * or 0 (a repeatable option, the one value); any other value is an error naming the variable, thrown as `mistake` makes it.
 */
export function fromEnvironment(
  options: ParseArgsOptionsConfig,
  names: readonly string[],
  values: Values,
  env: NodeJS.ProcessEnv,
  taken: Map<string, string>,
  mistake: (message: string) => Error,
): void {
  for (const name of names) {
    const variable = variableOf(name);
    const text = env[variable];
    if (values[name] !== undefined || text === undefined || text === '') continue;
    const option = options[name]!;
    let value: string | boolean = text;
    if (option.type === 'boolean') {
      if (!/^(true|false|1|0)$/i.test(text)) throw mistake(`${variable} must be true, false, 1 or 0; got "${text}"`);
      value = /^(true|1)$/i.test(text);
    }
    values[name] = option.multiple ? [text] : value;
    taken.set(name, variable);
  }
}

/** A message about options, naming the variable of each option that came from the environment instead of its flag. */
export function namingVariables(message: string, taken: ReadonlyMap<string, string>): string {
  return message.replace(/--([a-z][a-z0-9-]*)/g, (flag, name: string) => taken.get(name) ?? flag);
}

/** The --help paragraph listing the variables, wrapped to the help's width. */
export function environmentHelp(names: readonly string[]): string {
  const lines = [
    'Environment: each option of colapi serve may be given as a variable instead, named COLAPI_ and the',
    "option's name in capitals with _ for - (an option on the command line wins; an empty one is unset):",
  ];
  let current = ' ';
  for (const variable of names.map(variableOf)) {
    if (current.length + variable.length + 1 > 104) {
      lines.push(current);
      current = ' ';
    }
    current += ` ${variable}`;
  }
  lines.push(current, '  DATABASE_URL is the database URL when the command line names none.');
  return lines.join('\n');
}
