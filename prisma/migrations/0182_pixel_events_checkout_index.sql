-- A paid order's purchase conversion reads the buyer's checkout report (event 'payment_add' naming the order) inside
-- the transaction that marks the order paid, on every paid notification (docs/decisions/218). pixel_events had only a
-- created_at index, so that read scanned every pixel event. Partial: only checkout reports are looked up this way,
-- and the other events (page views, the bulk of the table) stay out of the index. Prisma cannot express a partial
-- index; schema.prisma says so on the model.
CREATE INDEX "pixel_events_checkout_user_idx" ON "pixel_events"("user_id", "id") WHERE "event" = 'payment_add';
