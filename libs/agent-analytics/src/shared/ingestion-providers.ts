import { AgentEgress } from './agent-egress';
import { BotRanges } from './bot-ranges';
import { BotVerifier } from './bot-verifier';
import { SiteRobots } from './site-robots';
import { VisitIngester } from './visit-ingester';
import { VisitStore } from './visit-store';
import { WebBotAuth } from './web-bot-auth';

/** What ingestion needs: classification, verification, robots.txt, storage (the API and its ingestion thread, the CLI and the worker share it). */
export const AGENT_INGESTION_PROVIDERS = [AgentEgress, BotRanges, WebBotAuth, BotVerifier, SiteRobots, VisitIngester, VisitStore];
