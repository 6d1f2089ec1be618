-- Keep shoot rows narrow: the JSONB documents (a few KB each) are compressed or moved out of line
-- once a row passes 256 bytes, so that listing, counting and sorting scan small rows and read a
-- document only for the rows a page returns.
ALTER TABLE "shoots" SET (toast_tuple_target = 256);
