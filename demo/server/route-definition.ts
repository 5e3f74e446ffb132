/**
 * What a route of the demo merchant is: the schema its input must pass and a
 * named handler that turns the checked input into the answer. The route table
 * (route-table.ts) maps each method and path to one; the app (merchant.ts) runs them.
 */
import type { Request } from 'express';
import { z } from 'zod';
import type { MerchantContext } from './merchant-context.js';

export type Handler<Schema extends z.ZodType> = (
  input: z.infer<Schema>,
  context: MerchantContext,
  request: Request,
) => object | Promise<object>;

export interface Route<Schema extends z.ZodType = z.ZodType> {
  readonly schema: Schema;
  readonly handler: Handler<Schema>;
  /** The answer lists the gateway calls the handler made (`calls`), for the page's call panel. */
  readonly callsGateway: boolean;
  /** Sent without the answer scrub: only for answers that must show test card numbers (the sandbox's public ones). */
  readonly asIs?: boolean;
}

/** One route's input: the path parameters, the query and the JSON body, each checked by its schema (unchecked parts are ignored). */
export function input<
  Params extends z.ZodType = z.ZodUnknown,
  Query extends z.ZodType = z.ZodUnknown,
  Body extends z.ZodType = z.ZodUnknown,
>(parts: { params?: Params; query?: Query; body?: Body }) {
  return z.object({
    params: parts.params ?? z.unknown(),
    query: parts.query ?? z.unknown(),
    body: parts.body ?? z.unknown(),
  }) as z.ZodObject<{ params: Params; query: Query; body: Body }>;
}

export const noInput = input({});

/** A route that answers from the shop's own records, without talking to the gateway. */
export function route<Schema extends z.ZodType>(schema: Schema, handler: Handler<Schema>, options: { asIs?: boolean } = {}): Route {
  return { schema, handler: handler as Handler<z.ZodType>, callsGateway: false, ...options };
}

/** A route that talks to the gateway: its answer carries the calls made. */
export function gatewayRoute<Schema extends z.ZodType>(schema: Schema, handler: Handler<Schema>): Route {
  return { schema, handler: handler as Handler<z.ZodType>, callsGateway: true };
}
