-- The local engine's "parallax" motion is a sharp framed copy drifting over a blurred backdrop; it has no depth, so the
-- seeded template that promised "Depth Layers" is called what it does (docs/decisions/062). Renamed only where staff
-- kept the seeded name.
UPDATE "templates" SET "name" = 'Floating Frame', "updated_at" = now()
WHERE "name" = 'Depth Layers' AND "engine_params"->>'motion' = 'parallax';
