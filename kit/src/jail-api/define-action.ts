// How an action of the contract is declared: once, as its input fields and what the docs and the
// landing check need to know about it. `defineActions` adds the name (the record's key) as the
// `type` literal, so a name is written exactly once.
import { z } from 'zod';

type Shape = z.core.$ZodLooseShape;

/**
 * What `POST /landing` reports for the action: the frames and element under its last point
 * (`point`; a drag's `to`), at the focused element (`focus`), the history entry it goes to
 * (`history`), or no target (`nowhere`).
 */
export type ActionLands = 'point' | 'focus' | 'history' | 'nowhere';

export interface ActionAbout<S extends Shape> {
  /** One sentence for `GET /tools` and docs/jail-service-api.md. */
  description: string;
  lands: ActionLands;
  /** A valid action without its `type`, shown in the docs (and parsed by the docs generator). */
  example: z.input<z.ZodObject<S>>;
}

export interface ActionDeclaration<S extends Shape> extends ActionAbout<S> {
  input: S;
}

/** One action's input fields (besides `type`) and what is said about it. */
export function action<S extends Shape>(input: S, about: ActionAbout<S>): ActionDeclaration<S> {
  return { input, ...about };
}

export type ActionSchemaOf<Name extends string, S extends Shape> = z.ZodObject<
  { type: z.ZodLiteral<Name> } & S,
  z.core.$strict
>;

/** A declared action with its name and its strict schema (`type` first, then the fields). */
export interface ActionContract<Name extends string, S extends Shape> {
  name: Name;
  description: string;
  lands: ActionLands;
  /** Whether the action carries the optional `expect` (the landing re-check before input). */
  takesExpect: boolean;
  schema: ActionSchemaOf<Name, S>;
  example: z.input<ActionSchemaOf<Name, S>>;
}

export type ActionContracts<D extends Record<string, ActionDeclaration<Shape>>> = {
  [Name in keyof D & string]: ActionContract<Name, D[Name]['input']>;
};

/** The contracts of `declarations`, in declaration order, each named by its key. */
export function defineActions<D extends Record<string, ActionDeclaration<Shape>>>(
  declarations: D,
): ActionContracts<D> {
  const contracts = Object.entries(declarations).map(([name, declared]) => {
    const contract: ActionContract<string, Shape> = {
      name,
      description: declared.description,
      lands: declared.lands,
      takesExpect: 'expect' in declared.input,
      schema: z.strictObject({ type: z.literal(name), ...declared.input }),
      example: { type: name, ...declared.example },
    };
    return [name, contract] as const;
  });
  return Object.fromEntries(contracts) as ActionContracts<D>;
}
