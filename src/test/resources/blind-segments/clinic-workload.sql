SELECT count(*) FROM visits WHERE no_show = false
SELECT pet_id, count(*) FROM visits WHERE NOT no_show AND visited_at > '2026-02-01' GROUP BY pet_id
SELECT count(*) FROM visits WHERE is_emergency
SELECT avg(fee_cents) FROM visits WHERE is_emergency = true AND cancelled_at IS NULL
SELECT count(*) FROM visits WHERE reminder_sent = 0
SELECT visit_id FROM visits WHERE reminder_sent = 0 AND visited_at > now()
SELECT count(*) FROM visits WHERE kind = 'vaccination'
SELECT sum(fee_cents) FROM visits WHERE kind = 'vaccination' AND cancelled_at IS NULL
SELECT count(*) FROM visits WHERE fee_cents = 0
SELECT visit_id FROM visits WHERE fee_cents = 0 ORDER BY visit_id
SELECT count(*) FROM pets WHERE neutered IS TRUE
SELECT species, count(*) FROM pets WHERE neutered = 't' GROUP BY species
SELECT count(*) FROM pets WHERE insured IS NOT TRUE
SELECT pet_id FROM pets WHERE insured IS NOT TRUE AND species = 'dog'
SELECT count(*) FROM pets WHERE species = 'rabbit'
SELECT count(*) FROM owners WHERE is_test = false
SELECT owner_id FROM owners WHERE NOT is_test ORDER BY owner_id
SELECT o.owner_id, count(*) FROM owners o JOIN pets p ON p.owner_id = o.owner_id WHERE o.is_test IS FALSE GROUP BY o.owner_id
SELECT owner_id FROM owners WHERE email = 'o7@example.org'
SELECT full_name FROM owners WHERE email = 'o7@example.org' AND is_test = false
