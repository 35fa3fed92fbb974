/** Deleting the account everywhere (docs/api.md §12.2): the phrase must be typed, as the API asks. */
import { useState } from 'preact/hooks';
import { gql } from './api.js';
import { graphql } from './generated/index.js';
import { ErrorBox, Page } from './parts.js';

const PHRASE = 'delete my account';

const DeleteAccount = graphql(`
  mutation ConsoleDeleteAccount($confirm: String!) {
    deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }
  }
`);

export function DeleteAccountPage({ deleted }: { deleted(summary: string): void }) {
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      const { deleteMyAccount: r } = await gql(DeleteAccount, { confirm: typed });
      deleted(`Your account was deleted. ${r.transferred.length} resource(s) passed to an admin, ${r.deleted.length} deleted.`);
    } catch (e) {
      setFailure(e);
    }
  };
  return (
    <Page title="Delete account">
      <p>
        This deletes your account in every app: your rows follow each table's rule, each resource you own passes to its longest-standing admin or is
        deleted, and every session of yours ends. It cannot be undone.
      </p>
      <form onSubmit={submit} class="confirm">
        <label for="confirm-phrase">
          Type <kbd>{PHRASE}</kbd> to confirm
        </label>
        <input id="confirm-phrase" value={typed} onInput={e => setTyped((e.target as HTMLInputElement).value)} autoComplete="off" />
        <ErrorBox error={failure} />
        <button type="submit" class="danger" disabled={typed !== PHRASE}>
          Delete my account
        </button>
      </form>
    </Page>
  );
}
