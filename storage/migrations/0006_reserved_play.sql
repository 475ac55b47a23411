-- dama-bot schema version 6: reserved for another branch's migration (play). A no-op here so
-- that version 8 can be numbered as agreed; replaced by that branch's file when merged.
SELECT 1;
