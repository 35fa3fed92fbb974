/** Pending invitations in every app, answered here: the same accept and decline as in the app. */
import { useState } from 'preact/hooks';
import { gql } from './api.js';
import { graphql } from './generated/index.js';
import { DataTable, ErrorBox, Loading, Notice, Page, resourceInAppColumns, when } from './parts.js';
import { useData } from './use-data.js';

const InvitationsQuery = graphql(`
  query ConsoleInvitations {
    myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }
  }
`);

const AnswerInvitation = graphql(`
  mutation ConsoleAnswerInvitation($resourceId: ID!, $accept: Boolean!) {
    answerInvitationAcrossApps(resourceId: $resourceId, accept: $accept) { resourceId state role }
  }
`);

export function InvitationsPage() {
  const { data, error, loading, reload } = useData(() => gql(InvitationsQuery));
  const [notice, setNotice] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const answer = async (resourceId: string, name: string, accept: boolean) => {
    setFailure(null);
    try {
      await gql(AnswerInvitation, { resourceId, accept });
      setNotice(accept ? `You joined ${name}.` : `You declined the invitation to ${name}.`);
      reload();
    } catch (e) {
      setFailure(e);
    }
  };
  const invitations = data?.myInvitationsAcrossApps ?? [];
  return (
    <Page title="Invitations">
      <p class="muted">Invitations to resources in every app you use. Accepting here is the same as accepting in the app.</p>
      {notice && <Notice text={notice} />}
      <ErrorBox error={error ?? failure} />
      {loading && !data && <Loading />}
      {data && !invitations.length && <p>No pending invitations.</p>}
      {invitations.length > 0 && (
        <DataTable
          caption="Pending invitations"
          rows={invitations}
          keyOf={i => i.resourceId}
          columns={[
            ...resourceInAppColumns,
            { label: 'Role', cell: i => i.role },
            { label: 'Expires', cell: i => when(i.expiresAt) },
            {
              label: 'Answer',
              class: 'actions',
              cell: i => (
                <>
                  <button type="button" onClick={() => answer(i.resourceId, i.name, true)} aria-label={`Accept the invitation to ${i.name}`}>
                    Accept
                  </button>
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => answer(i.resourceId, i.name, false)}
                    aria-label={`Decline the invitation to ${i.name}`}
                  >
                    Decline
                  </button>
                </>
              ),
            },
          ]}
        />
      )}
    </Page>
  );
}
