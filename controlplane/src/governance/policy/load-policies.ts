import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseDocument } from 'yaml';
import { AppError } from '../../errors.js';
import { policySchema, type TenantPolicy } from './policy-schema.js';

/** A policy file is malformed: the message names the file and the field. */
export class PolicyFileError extends AppError {
  declare readonly code: 'POLICY_INVALID';
  constructor(message: string) {
    super('POLICY_INVALID', message, { status: 500 });
    this.name = 'PolicyFileError';
  }
}

/** Every tenant's policy; tenants without a file get `default`. */
export interface PolicySet {
  forTenant(tenant: string): TenantPolicy;
  tenants(): string[];
}

/** Parses one policy file's text. Throws PolicyFileError `<file>: <field>: <problem>`. */
export function parsePolicy(text: string, file: string): TenantPolicy {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const yamlError = document.errors[0];
  if (yamlError) {
    throw new PolicyFileError(`${file}: YAML error: ${yamlError.message.split('\n')[0]}`);
  }
  const parsed = policySchema.safeParse(document.toJS());
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new PolicyFileError(lines.join('\n'));
  }
  const stem = basename(file).replace(/\.ya?ml$/, '');
  if (parsed.data.tenant !== stem) {
    throw new PolicyFileError(
      `${file}: tenant: is "${parsed.data.tenant}" but the file is named for "${stem}"`,
    );
  }
  return parsed.data;
}

/**
 * Loads and validates every `*.yaml`/`*.yml` in `dir` at start-up; `default.yaml` is required.
 * Throws PolicyFileError listing every problem of the first bad file.
 */
export function loadPolicies(dir: string): PolicySet {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort();
  } catch (error) {
    throw new PolicyFileError(
      `CLAWDIE_POLICY_DIR=${dir} cannot be read: ${(error as Error).message}`,
    );
  }
  const policies = new Map<string, TenantPolicy>();
  for (const name of names) {
    const file = join(dir, name);
    const policy = parsePolicy(readFileSync(file, 'utf8'), file);
    if (policies.has(policy.tenant))
      throw new PolicyFileError(`${file}: tenant: "${policy.tenant}" is defined twice`);
    policies.set(policy.tenant, policy);
  }
  const fallback = policies.get('default');
  if (!fallback)
    throw new PolicyFileError(
      `${join(dir, 'default.yaml')}: missing: a default policy is required`,
    );
  return {
    forTenant: (tenant) => policies.get(tenant) ?? fallback,
    tenants: () => [...policies.keys()],
  };
}

/** A policy set from in-memory policies (tests, embedding). */
export function policySetOf(policies: readonly TenantPolicy[]): PolicySet {
  const byTenant = new Map(policies.map((policy) => [policy.tenant, policy]));
  const fallback = byTenant.get('default') ?? policies[0];
  if (!fallback) throw new Error('policySetOf needs at least one policy');
  return {
    forTenant: (tenant) => byTenant.get(tenant) ?? fallback,
    tenants: () => [...byTenant.keys()],
  };
}
