-- dama-bot schema version 7: reserved for another branch's migration (analysis). A no-op here so
-- that version 8 can be numbered as agreed; replaced by that branch's file when merged.
SELECT 1;
