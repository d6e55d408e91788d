import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Search, UserRoundSearch } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Input } from '../../../components/ui/input';
import { type AdminMemberHit, MEMBER_SEARCH_MAX, MEMBER_SEARCH_MIN } from '../../../../shared/schemas/admin-members';
import { AdminPage, Section } from '../components/admin-page';
import { EmptyState, ListStates } from '../components/states';
import { Pill, Table, Td, Th } from '../components/table';
import { fmtDate } from '../format';
import { memberApi, memberKeys } from '../member-api';

/** The member's badges: admin, verified, suspended (or a plain member). */
function Status({ m }: { m: AdminMemberHit }) {
  return (
    <>
      {m.role === 'admin' && <Pill tone="primary">Admin</Pill>}
      {m.verified && <Pill tone="success">Verified</Pill>}
      {m.restricted && <Pill tone="danger">Suspended</Pill>}
      {m.role !== 'admin' && !m.verified && !m.restricted && <Pill>Member</Pill>}
    </>
  );
}

/** Waits until typing pauses before the search runs. */
function useDebounced(value: string, ms = 250) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** /admin/members (issue 32): find a member by name or e-mail and open their page. */
export default function MembersAdminPage() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const q = useDebounced(text.trim());
  const ready = q.length >= MEMBER_SEARCH_MIN;
  const inputId = useId();
  const hintId = useId();

  // The search is in the address, so Back from a member returns to the same list.
  useEffect(() => {
    setParams(q ? { q } : {}, { replace: true });
  }, [q, setParams]);

  const search = useQuery({
    queryKey: memberKeys.search(q),
    queryFn: () => memberApi.search(q),
    enabled: ready,
    placeholderData: keepPreviousData,
  });

  return (
    <AdminPage title="Members" description="Find a member by name or e-mail to see their account, identity changes and moderation history.">
      <div className="grid gap-6">
        <search className="block max-w-xl">
          <label htmlFor={inputId} className="text-sm font-medium">
            Name or e-mail
          </label>
          <div className="relative mt-1.5">
            <Search className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input
              id={inputId}
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="e.g. Chloe or chloe@example.com"
              maxLength={MEMBER_SEARCH_MAX}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={hintId}
              className="pl-10"
            />
          </div>
          <p id={hintId} className="mt-1.5 text-xs text-muted-foreground">
            At least {MEMBER_SEARCH_MIN} characters; any part of the name or address, any case.
          </p>
        </search>

        {!ready ? (
          <Section title="Results">
            <EmptyState
              icon={UserRoundSearch}
              title="Search for a member"
              text="Type a name or an e-mail address. Member pages are for admins only: nothing here is shown to other members."
            />
          </Section>
        ) : (
          <Section
            title="Results"
            description={
              search.data
                ? search.data.more
                  ? `The first ${search.data.members.length} matches: add more of the name or address to narrow them.`
                  : `${search.data.members.length} ${search.data.members.length === 1 ? 'match' : 'matches'}`
                : undefined
            }
          >
            <ListStates
              query={search}
              loading="Searching members"
              isEmpty={(search.data?.members.length ?? 0) === 0}
              empty={<EmptyState icon={UserRoundSearch} title="No members found" text={`No name or e-mail contains “${q}”.`} />}
            >
              <Table caption="Members found">
                <thead>
                  <tr>
                    <Th>Member</Th>
                    <Th className="hidden sm:table-cell">Joined</Th>
                    <Th className="hidden sm:table-cell">Status</Th>
                  </tr>
                </thead>
                <tbody>
                  {search.data?.members.map((m) => (
                    <tr key={m.id} className="hover:bg-muted/40">
                      <Td className="max-w-0 w-full">
                        <Link
                          to={`/admin/members/${encodeURIComponent(m.id)}`}
                          className="block font-semibold text-foreground underline-offset-4 wrap-anywhere hover:underline"
                        >
                          {m.name}
                        </Link>
                        <span className="block text-xs text-muted-foreground wrap-anywhere">{m.email}</span>
                        <span className="mt-1 flex flex-wrap gap-1 sm:hidden">
                          <Status m={m} />
                        </span>
                      </Td>
                      <Td className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">{fmtDate(m.joinedAt)}</Td>
                      <Td className="hidden sm:table-cell">
                        <span className="flex flex-wrap gap-1">
                          <Status m={m} />
                        </span>
                      </Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </ListStates>
          </Section>
        )}
      </div>
    </AdminPage>
  );
}
