/**
 * Deletes the duplicates a race made. A racing run that made one of them
 * deletes the same ones at the same time, so a delete may find its item
 * already gone (DocuSign answers an error): the listing then says whether it
 * is gone, and only one still listed is a failure.
 */
export async function dropDuplicates(
  ids: readonly string[],
  remove: (id: string) => Promise<void>,
  listIds: () => Promise<string[]>,
): Promise<void> {
  let failure: Error | undefined;
  for (const id of ids)
    try {
      await remove(id);
    } catch (error) {
      failure ??= error instanceof Error ? error : new Error(String(error));
    }
  if (failure === undefined) return;
  const left = await listIds();
  if (ids.some((id) => left.includes(id))) throw failure;
}
