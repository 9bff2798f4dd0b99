-- serves: the cascade of an echo's delete into popular_echos (the FK's child lookup). Without it
-- every delete scanned the ranked lists (up to 16 × 200 rows) twice: 6,407 rows read for deleting
-- one echo on a store whose lists were full (tests/api/following-fanout.test.ts found it).
CREATE INDEX `popular_echos_echo` ON `popular_echos` (`echo_id`);
