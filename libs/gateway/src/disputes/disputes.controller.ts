import { Body, Param, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import {
  CommandAccepted,
  type CommandOrigin,
  CreateDisputeRequest,
  DecideDisputeCommand,
  type DisputeRequest,
  DisputeEvidenceFileResponse,
  DisputeEvidencePageModel,
  DisputeEvidenceParams,
  DisputeEvidenceResponse,
  DisputePageModel,
  DisputeResponse,
  DisputeTokenParam,
  InitiateDisputeEvidenceRequest,
  ListDisputeEvidencesParams,
  ListDisputesParams,
  Page,
  presentDispute,
  presentDisputeEvidence,
  transactionTokensOf,
  UpdateDisputeRequest,
  UploadDisputeEvidenceRequest,
} from '@ledger/contracts';
import { DisputeEvidenceStateConflict, type FiledDispute, ownedEvidence } from '@ledger/domain';
import { randomUUID } from 'node:crypto';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { inMemoryPage, pageRequest } from '../listing/paging';
import { ProgramDisputeReader } from './program-dispute-reader';

/**
 * Lithic's disputes (`client.disputes`): filed on a cleared card transaction, changed while NEW,
 * withdrawn by delete, and their evidence files, kept in the ledger (docs/decisions.md, "Disputes").
 * Every write answers with the dispute (or evidence) as its stream now holds it.
 */
@ProgramApi('disputes', 'v1/disputes', { errors: [404, 409] })
export class DisputesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly disputes: ProgramDisputeReader,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  @Route('POST', '', { summary: 'Dispute a cleared card transaction, for at most what it settled', answers: DisputeResponse })
  async create(@CallerOrigin() origin: CommandOrigin, @Body() body: CreateDisputeRequest): Promise<DisputeResponse> {
    const token = await this.decide(origin, {
      type: 'FileDispute',
      transactionToken: body.transaction_token,
      amount: body.amount,
      reason: body.reason,
      ...(body.customer_filed_date === undefined ? {} : { customerFiledDate: body.customer_filed_date }),
      ...(body.customer_note === undefined ? {} : { customerNote: body.customer_note }),
    });
    return presentDispute(await this.disputes.owned(origin.programToken, token));
  }

  @Route('GET', '', { summary: "The program's disputes, oldest first", answers: DisputePageModel })
  async list(@CallingProgram() programToken: string, @Query() params: ListDisputesParams): Promise<Page<DisputeResponse>> {
    const shown = (await this.disputes.all(programToken)).filter((dispute) => listed(dispute, params));
    return inMemoryPage(pageRequest(params), shown, (dispute) => dispute.disputeToken, 'dispute', (page) => Promise.resolve(page.map(presentDispute)));
  }

  @Route('GET', ':dispute_token', { summary: 'One dispute', answers: DisputeResponse })
  async get(@CallingProgram() programToken: string, @Param() { dispute_token }: DisputeTokenParam): Promise<DisputeResponse> {
    return presentDispute(await this.disputes.owned(programToken, dispute_token));
  }

  @Route('PATCH', ':dispute_token', { summary: 'Change a NEW dispute: the fields sent', answers: DisputeResponse })
  async update(@CallerOrigin() origin: CommandOrigin, @Param() { dispute_token }: DisputeTokenParam, @Body() body: UpdateDisputeRequest): Promise<DisputeResponse> {
    await this.decide(origin, {
      type: 'AmendDispute',
      disputeToken: dispute_token,
      ...(body.amount === undefined ? {} : { amount: body.amount }),
      ...(body.reason === undefined ? {} : { reason: body.reason }),
      ...(body.customer_filed_date === undefined ? {} : { customerFiledDate: body.customer_filed_date }),
      ...(body.customer_note === undefined ? {} : { customerNote: body.customer_note }),
    });
    return presentDispute(await this.disputes.owned(origin.programToken, dispute_token));
  }

  @Route('DELETE', ':dispute_token', { summary: 'Withdraw a dispute: CASE_CLOSED, WITHDRAWN', answers: DisputeResponse })
  async withdraw(@CallerOrigin() origin: CommandOrigin, @Param() { dispute_token }: DisputeTokenParam): Promise<DisputeResponse> {
    await this.decide(origin, { type: 'WithdrawDispute', disputeToken: dispute_token });
    return presentDispute(await this.disputes.owned(origin.programToken, dispute_token));
  }

  @Route('POST', ':dispute_token/evidences', { summary: 'Start an evidence upload: answers the path to PUT the file to', answers: DisputeEvidenceResponse })
  async initiateEvidence(@CallerOrigin() origin: CommandOrigin, @Param() { dispute_token }: DisputeTokenParam, @Body() body: InitiateDisputeEvidenceRequest): Promise<DisputeEvidenceResponse> {
    const evidenceToken = randomUUID();
    await this.decide(origin, { type: 'RequestDisputeEvidence', disputeToken: dispute_token, evidenceToken, ...(body.filename === undefined ? {} : { filename: body.filename }) });
    return this.evidence(origin.programToken, dispute_token, evidenceToken);
  }

  @Route('GET', ':dispute_token/evidences', { summary: "A dispute's evidence, oldest first", answers: DisputeEvidencePageModel })
  async listEvidences(@CallingProgram() programToken: string, @Param() { dispute_token }: DisputeTokenParam, @Query() params: ListDisputeEvidencesParams): Promise<Page<DisputeEvidenceResponse>> {
    const dispute = await this.disputes.owned(programToken, dispute_token);
    const shown = dispute.evidences.filter((evidence) => createdWithin(evidence.created, params));
    return inMemoryPage(pageRequest(params), shown, (evidence) => evidence.evidenceToken, 'evidence', (page) => Promise.resolve(page.map((evidence) => presentDisputeEvidence(dispute, evidence))));
  }

  @Route('GET', ':dispute_token/evidences/:evidence_token', { summary: 'One evidence file of a dispute', answers: DisputeEvidenceResponse })
  retrieveEvidence(@CallingProgram() programToken: string, @Param() { dispute_token, evidence_token }: DisputeEvidenceParams): Promise<DisputeEvidenceResponse> {
    return this.evidence(programToken, dispute_token, evidence_token);
  }

  @Route('DELETE', ':dispute_token/evidences/:evidence_token', { summary: 'Withdraw an evidence file: DELETED', answers: DisputeEvidenceResponse })
  async deleteEvidence(@CallerOrigin() origin: CommandOrigin, @Param() { dispute_token, evidence_token }: DisputeEvidenceParams): Promise<DisputeEvidenceResponse> {
    await this.decide(origin, { type: 'DeleteDisputeEvidence', disputeToken: dispute_token, evidenceToken: evidence_token });
    return this.evidence(origin.programToken, dispute_token, evidence_token);
  }

  @Route('PUT', ':dispute_token/evidences/:evidence_token/upload', { summary: "The evidence file's bytes (base64, at most 64 KiB), kept in the ledger", answers: DisputeEvidenceResponse })
  async upload(@CallerOrigin() origin: CommandOrigin, @Param() { dispute_token, evidence_token }: DisputeEvidenceParams, @Body() body: UploadDisputeEvidenceRequest): Promise<DisputeEvidenceResponse> {
    await this.decide(origin, { type: 'UploadDisputeEvidence', disputeToken: dispute_token, evidenceToken: evidence_token, contentBase64: body.content_base64 });
    return this.evidence(origin.programToken, dispute_token, evidence_token);
  }

  @Route('GET', ':dispute_token/evidences/:evidence_token/download', { summary: 'The evidence file as uploaded', answers: DisputeEvidenceFileResponse })
  async download(@CallingProgram() programToken: string, @Param() { dispute_token, evidence_token }: DisputeEvidenceParams): Promise<DisputeEvidenceFileResponse> {
    const evidence = ownedEvidence(await this.disputes.owned(programToken, dispute_token), evidence_token);
    if (evidence.status !== 'UPLOADED' || evidence.contentBase64 === null || evidence.size === null) throw new DisputeEvidenceStateConflict(evidence.evidenceToken, evidence.status, 'a download', 'an UPLOADED file');
    return { filename: evidence.filename, size: evidence.size, content_base64: evidence.contentBase64 };
  }

  private async decide(origin: CommandOrigin, request: DisputeRequest): Promise<string> {
    const accepted = await this.commands.execute<DecideDisputeCommand, CommandAccepted>(new DecideDisputeCommand(origin, request));
    // A won case moved its transaction: the answer waits until the read models (balances) show it.
    await this.acknowledger.visible(accepted);
    return accepted.token;
  }

  private async evidence(programToken: string, disputeToken: string, evidenceToken: string): Promise<DisputeEvidenceResponse> {
    const dispute = await this.disputes.owned(programToken, disputeToken);
    return presentDisputeEvidence(dispute, ownedEvidence(dispute, evidenceToken));
  }
}

function listed(dispute: FiledDispute, params: ListDisputesParams): boolean {
  if (params.status !== undefined && dispute.status !== params.status) return false;
  if (params.transaction_tokens !== undefined && !transactionTokensOf(params.transaction_tokens).includes(dispute.transactionToken)) return false;
  return createdWithin(dispute.created, params);
}

/** begin inclusive, end exclusive, as every list here. */
function createdWithin(created: string, params: { begin?: Date; end?: Date }): boolean {
  const at = new Date(created).getTime();
  return (params.begin === undefined || at >= params.begin.getTime()) && (params.end === undefined || at < params.end.getTime());
}
