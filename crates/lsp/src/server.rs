//! The server's state and the dispatch of requests and notifications to their handlers. The
//! handlers are plain functions of a document, so tests call them without any protocol.

use super::documents::{Document, Documents};
use super::{completion, diagnostics, hover, navigation, symbols};
use lsp_server::{ErrorCode, Notification, ResponseError};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CompletionOptions, PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

#[derive(Default)]
pub struct Server {
    docs: Documents,
}

impl Server {
    pub fn new() -> Server {
        Server::default()
    }

    pub fn capabilities() -> ServerCapabilities {
        ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            })),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some([".", "$", "@", "#"].map(String::from).to_vec()),
                ..Default::default()
            }),
            hover_provider: Some(true.into()),
            definition_provider: Some(lsp_types::OneOf::Left(true)),
            references_provider: Some(lsp_types::OneOf::Left(true)),
            document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
            folding_range_provider: Some(true.into()),
            ..Default::default()
        }
    }

    pub fn document(&self, uri: &Uri) -> Option<&Document> {
        self.docs.get(uri)
    }

    /// The answer to a request, as the JSON of its result.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, ResponseError> {
        match method {
            req::Completion::METHOD => self.answer::<req::Completion>(params, |doc, p| {
                completion::complete(doc, p.text_document_position.position)
            }),
            req::HoverRequest::METHOD => self.answer::<req::HoverRequest>(params, |doc, p| {
                hover::hover(doc, p.text_document_position_params.position)
            }),
            req::GotoDefinition::METHOD => self.answer::<req::GotoDefinition>(params, |doc, p| {
                navigation::definition(doc, p.text_document_position_params.position)
            }),
            req::References::METHOD => self.answer::<req::References>(params, |doc, p| {
                navigation::references(doc, p.text_document_position.position, p.context.include_declaration)
            }),
            req::DocumentSymbolRequest::METHOD => {
                self.answer::<req::DocumentSymbolRequest>(params, |doc, _| symbols::document_symbols(doc))
            }
            req::FoldingRangeRequest::METHOD => {
                self.answer::<req::FoldingRangeRequest>(params, |doc, _| symbols::folding_ranges(doc))
            }
            _ => Err(error(ErrorCode::MethodNotFound, format!("ds does not answer `{method}`"))),
        }
    }

    /// Parses the parameters, finds the document they name and runs the handler on it; a
    /// document that is not open gets an empty answer.
    fn answer<R>(
        &self,
        params: Value,
        handler: impl FnOnce(&Document, R::Params) -> R::Result,
    ) -> Result<Value, ResponseError>
    where
        R: lsp_types::request::Request,
        R::Params: TextDocumentParams,
    {
        let params: R::Params = parse(params)?;
        let result = match self.docs.get(params.uri()) {
            Some(doc) => serde_json::to_value(handler(doc, params)),
            None => Ok(Value::Null),
        };
        result.map_err(|e| error(ErrorCode::InternalError, e.to_string()))
    }

    /// Handles a notification; returns the notifications to send back (diagnostics).
    pub fn notify(&mut self, method: &str, params: Value) -> Result<Vec<Notification>, ResponseError> {
        let published = match method {
            note::DidOpenTextDocument::METHOD => {
                let p: lsp_types::DidOpenTextDocumentParams = parse(params)?;
                vec![publish(self.docs.open(p.text_document.uri, p.text_document.text))]
            }
            note::DidChangeTextDocument::METHOD => {
                let p: lsp_types::DidChangeTextDocumentParams = parse(params)?;
                let Some(text) = self.changed_text(&p) else { return Ok(Vec::new()) };
                vec![publish(self.docs.open(p.text_document.uri, text))]
            }
            note::DidSaveTextDocument::METHOD => self.docs.refresh_all().into_iter().map(publish).collect(),
            note::DidCloseTextDocument::METHOD => {
                let p: lsp_types::DidCloseTextDocumentParams = parse(params)?;
                self.docs.close(&p.text_document.uri);
                vec![notification(p.text_document.uri, Vec::new())]
            }
            _ => Vec::new(),
        };
        Ok(published)
    }

    /// The text after a change: the whole new text, or edits of ranges applied in turn.
    fn changed_text(&self, p: &lsp_types::DidChangeTextDocumentParams) -> Option<String> {
        let mut text = self.docs.get(&p.text_document.uri)?.text.clone();
        for change in &p.content_changes {
            match change.range {
                None => text = change.text.clone(),
                Some(range) => {
                    let lines = super::position::LineIndex::new(&text);
                    let lo = lines.offset(&text, range.start) as usize;
                    let hi = (lines.offset(&text, range.end) as usize).max(lo);
                    text.replace_range(lo..hi, &change.text);
                }
            }
        }
        Some(text)
    }
}

fn publish(doc: &Document) -> Notification {
    notification(doc.uri.clone(), diagnostics::of_document(doc))
}

fn notification(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    let params = PublishDiagnosticsParams { uri, diagnostics, version: None };
    Notification::new(note::PublishDiagnostics::METHOD.to_string(), params)
}

fn parse<P: DeserializeOwned>(params: Value) -> Result<P, ResponseError> {
    serde_json::from_value(params).map_err(|e| error(ErrorCode::InvalidParams, e.to_string()))
}

pub(super) fn error(code: ErrorCode, message: String) -> ResponseError {
    ResponseError { code: code as i32, message, data: None }
}

/// Request parameters that name a document.
pub trait TextDocumentParams {
    fn uri(&self) -> &Uri;
}

macro_rules! text_document_params {
    ($($t:ty => |$p:ident| $uri:expr),* $(,)?) => {
        $(impl TextDocumentParams for $t {
            fn uri(&self) -> &Uri {
                let $p = self;
                &$uri
            }
        })*
    };
}

text_document_params! {
    lsp_types::CompletionParams => |p| p.text_document_position.text_document.uri,
    lsp_types::HoverParams => |p| p.text_document_position_params.text_document.uri,
    lsp_types::GotoDefinitionParams => |p| p.text_document_position_params.text_document.uri,
    lsp_types::ReferenceParams => |p| p.text_document_position.text_document.uri,
    lsp_types::DocumentSymbolParams => |p| p.text_document.uri,
    lsp_types::FoldingRangeParams => |p| p.text_document.uri,
}
