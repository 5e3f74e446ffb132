/**
 * What a route of the demo merchant is: the schema its input must pass and a
 * named handler that turns the checked input into the answer (JSON for a page's
 * script, or a whole page the server renders). The route table (route-table.ts)
 * maps each method and path to one; the app (merchant.ts) runs them.
 */
import type { Request } from 'express';
import { z } from 'zod';
import type { MerchantContext } from './merchant-context.js';
import type { PageParts } from './payment-pages/document.js';

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

/** What a page's renderer is given beside its input: the nonce of the page's Content-Security-Policy. */
export interface PageOptions {
  readonly nonce: string;
}

/** A page as its renderer answers it: its parts, the preload as a `Link` header, and the call log's label for the calls made. */
export interface RenderedPage extends PageParts {
  readonly link?: string;
  readonly callsLabel?: string;
}

/** A page the shop's server renders (a payment page with its checkout in the HTML): its input's schema and its renderer. */
export interface PageRoute<Schema extends z.ZodType = z.ZodType> {
  readonly schema: Schema;
  readonly render: (input: z.infer<Schema>, context: MerchantContext, options: PageOptions) => RenderedPage | Promise<RenderedPage>;
}

export function pageRoute<Schema extends z.ZodType>(schema: Schema, render: PageRoute<Schema>['render']): PageRoute {
  return { schema, render: render as PageRoute['render'] };
}
